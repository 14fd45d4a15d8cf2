namespace Picollo.Reporting;

/// <summary>The files <see cref="PerfReportWriter.Write"/> wrote for one test, for adapters to attach and print.</summary>
/// <param name="JsonPath">The JSON result file.</param>
/// <param name="SvgPath">The percentile-distribution plot.</param>
public sealed record PerfReportFiles(string JsonPath, string SvgPath);
