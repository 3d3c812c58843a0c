"""The modes of the app, by name, with their titles (in the order of their keys)."""

MODE_TITLES = {
    "library": "Library",
    "editor": "Editor",
    "play": "Play",
    "compare": "Compare",
    "results": "Results",
    "review": "Review",
}
