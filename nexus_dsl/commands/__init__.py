"""The parts of the `nexus` command that are more than a few lines: exit codes and the errors that
carry them (`exits`), progress bars (`progress`), cards forced into a bout (`forcing`), the JSON
forms of the reports (`reports`) and `nexus ab` (`ab`). `cli.py` builds the parser and dispatches.
"""
