# libFuzzer targets, included by the top Makefile. (Filled in by the inflate fuzzing work.)
