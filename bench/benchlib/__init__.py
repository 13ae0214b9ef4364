"""Helpers of bench/run_all.py: the MPIs under comparison (mpis), running the benchmark
programs and parsing what they print (suite), tables and files (report), curves (plot)."""
