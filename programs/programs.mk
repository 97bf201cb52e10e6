# Command-line programs, included by the top Makefile. (Filled in by the igzip command work.)
