using Picollo.Benchmarks;

// One command per benchmark family, so later ones (read, threads, perf) slot in beside `record`.
string command = args.Length > 0 ? args[0] : string.Empty;
switch (command)
{
    case "record":
        return RecordBenchmark.Run();
    case "threads":
        return ThreadsBenchmark.Run();
    default:
        Console.Error.WriteLine("usage: dotnet run -c Release --project bench/Picollo.Benchmarks -- <command>");
        Console.Error.WriteLine("commands:");
        Console.Error.WriteLine("  record   single-threaded Record: Picollo vs HdrHistogram.NET vs a plain loop (writes bench/RESULTS.md)");
        Console.Error.WriteLine("  threads  Record by 1 and 2 threads at once: Picollo's concurrency modes vs HdrHistogram.NET (writes bench/RESULTS.md)");
        return 2;
}
