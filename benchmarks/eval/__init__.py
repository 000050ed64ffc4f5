"""Evaluation: dataset + method -> ranked tool names -> metrics table / JSON / PNG."""
