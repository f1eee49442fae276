"""Layer 2, wire: how events travel as JSON. Dialects (each harness's names, units
and rules as data), field codecs read off the event classes' metadata, the lenient
payload and answer codecs, checks of a typed answer, and the JSON Schemas of
``typings/``. Imports only the events and base layers."""
