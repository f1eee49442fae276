"""The command line: run, check, explain, doctor, payload, completion, serve, install and uninstall, start-up."""
