"""One model module per source document; see :mod:`perfstudies.studies` for the protocol."""
