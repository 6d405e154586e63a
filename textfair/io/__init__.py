"""Reading user corpora and writing outputs safely: one module per job (the output checks,
the cache file's check, atomic publishing, file and corpus readers, YAML, terminal text).

This package re-exports the names the rest of textfair imports from it.
"""

from textfair.io._atomic import atomic_directory, atomic_writer, current_umask
from textfair.io._cache_file import CACHE_APPLICATION_ID, check_cache_file, connect_cache
from textfair.io._files import input_file, read_json, read_utf8
from textfair.io._outputs import Output, check_output_directory, check_outputs
from textfair.io._safe_yaml import load_yaml
from textfair.io._tables import read_table, read_texts, with_text_column
from textfair.io._terminal import printable

__all__ = [
    "CACHE_APPLICATION_ID",
    "Output",
    "atomic_directory",
    "atomic_writer",
    "check_cache_file",
    "check_output_directory",
    "check_outputs",
    "connect_cache",
    "current_umask",
    "input_file",
    "load_yaml",
    "printable",
    "read_json",
    "read_table",
    "read_texts",
    "read_utf8",
    "with_text_column",
]
