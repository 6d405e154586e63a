"""`python -m textfair`: the command line."""

from textfair.cli import main

main()
