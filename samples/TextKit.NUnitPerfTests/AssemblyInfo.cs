using NUnit.Framework;

// Fixtures run in parallel, as in many NUnit projects; perf tests still run alone (the adapter makes them ParallelScope.None).
// It also makes this assembly reference nunit.framework itself, which NUnit3TestAdapter needs to look for tests in it: a
// project whose only NUnit types come through Picollo's attributes has no such reference (docs/TESTING.md).
[assembly: Parallelizable(ParallelScope.Fixtures)]
