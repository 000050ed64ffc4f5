"""Speed benchmarks."""
