"""Concept packs: reading HatCat packs, naming their concepts, finding them by name."""
