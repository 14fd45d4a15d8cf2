namespace Picollo.Testing;

/// <summary>
/// How an adapter starts its test framework on one test in a fresh process (docs/VERDICTS.md, "Levels"): the program,
/// its arguments and the environment it needs beside the worker protocol's variables, which <see cref="FreshProcessRunner"/>
/// adds. The xunit adapter runs the test assembly's own runner on the test case's id; the NUnit adapter loads NUnit's
/// runner into the test assembly's process through a startup hook.
/// </summary>
/// <param name="FileName">The program: the <c>dotnet</c> host (<see cref="DotnetHost.Path"/>).</param>
/// <param name="Arguments">Its arguments, each one argument (no quoting).</param>
/// <param name="Environment">Variables to set in the child.</param>
/// <param name="Description">The test as the worker's messages name it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
internal sealed record PerfTestWorker(
    string FileName, IReadOnlyList<string> Arguments, IReadOnlyDictionary<string, string> Environment, string Description);
