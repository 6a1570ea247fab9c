"""The bundled bitmap fonts (data files; see README.md here for how they were made)."""
