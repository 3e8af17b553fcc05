"""Benchmarks: one command each, a table on stdout, JSON under bench/results/."""
