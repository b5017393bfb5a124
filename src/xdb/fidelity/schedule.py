"""Maintenance on a schedule, for a long-running ``xdb serve``: a daemon thread runs
``maintenance`` every ``interval`` seconds (the first run after one interval) until stopped.
A failed run is logged and the next one tries again."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdb.core import Database
    from xdb.fidelity.fidelity_models import MaintenanceResponse

log = logging.getLogger(__name__)


class MaintenanceSchedule:
    def __init__(self, db: Database, interval: float) -> None:
        self.db = db
        self.interval = interval
        self.runs = 0
        self.last: MaintenanceResponse | None = None
        self.ran = threading.Event()  # set after each run (tests wait on it)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="xdb-maintenance", daemon=True)

    def start(self) -> MaintenanceSchedule:
        self._thread.start()
        return self

    def stop(self, timeout: float | None = None) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.last = self.db.maintenance()
                log.info(
                    "maintenance: %d merged, %d bytes freed",
                    self.last.records_compressed,
                    self.last.bytes_freed,
                )
            except Exception as exc:  # the thread must outlive any one run's failure
                log.warning("maintenance failed, retried next time: %s", exc)
            self.runs += 1
            self.ran.set()
