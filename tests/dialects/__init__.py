"""Each harness's wire format through agent-hooks run: payloads decoded, answers in its own shape."""
