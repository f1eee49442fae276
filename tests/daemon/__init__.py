"""The resident server of agent-hooks run and its quick client, end to end as subprocesses."""
