using NUnit.Framework;

// Fixtures run in parallel, as in many NUnit projects; perf tests still run alone (the adapter makes them ParallelScope.None).
[assembly: Parallelizable(ParallelScope.Fixtures)]
