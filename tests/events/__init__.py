"""The typed events, the capability table, the wire codecs and the JSON Schemas."""
