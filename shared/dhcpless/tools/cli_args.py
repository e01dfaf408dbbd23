"""Argument types and the parser class of the `dhcpless` command line: each bad value is
refused by argparse as one line, before any sub-command starts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NoReturn

from dhcpless import keys
from dhcpless.tools.cli_errors import UsageError


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line that says where help is, not the whole usage
    block above it (sub-parsers are made with this class too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive(text: str) -> int:
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def port(text: str) -> int:
    """A TCP port, checked here: out of range, the socket layer raises OverflowError (a
    traceback) long after the arguments were read."""
    value = whole(text)
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_PORT} (0: any free port), got {value}")
    return value


MAX_PORT = 65535


def ramdisk_profile_option(parser: argparse.ArgumentParser) -> None:
    """`--ramdisk-profile`: which ramdisk's network writer judges the data (`render`)."""
    parser.add_argument(
        "--ramdisk-profile",
        choices=[p.value for p in keys.RamdiskProfile],
        help="the ramdisk whose network writer must configure the data (default: the "
        "template's annotation, else $DHCPLESS_RAMDISK_PROFILE, else glean-el9)",
    )


def folder_exists(option: str, path: str) -> None:
    """A file to write (`--kubeconfig`, `--plot`) in a folder that exists: said before a run."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: directory {folder} does not exist")
