"""``python -m minesolver``."""

from .cli import main

main()
