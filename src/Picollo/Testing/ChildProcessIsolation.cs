using System.Diagnostics;
using Picollo.Baselines;
using Picollo.Measurement.Engine;
using Picollo.Reporting;

namespace Picollo.Testing;

/// <summary>
/// What every child process that measures for a parent inherits (a recording's fresh processes, <c>picollo ab</c>'s
/// workers): the parent's machine-wide lock, and nothing that writes where the user looks. It reports to the parent only:
/// no baseline written, no report among the user's results, no step summary row.
/// </summary>
internal static class ChildProcessIsolation
{
    /// <summary>Sets <paramref name="start"/>'s environment so; the child's own reports go to <paramref name="resultsFolder"/>.</summary>
    public static void Apply(ProcessStartInfo start, string resultsFolder)
    {
        start.Environment[MeasurementLock.InheritedVariable] = MeasurementLock.InheritedValue;
        start.Environment.Remove(BaselineStoreOptions.UpdateVariable);
        start.Environment.Remove("GITHUB_STEP_SUMMARY");
        start.Environment[PerfReportWriter.ResultsDirectoryVariable] = resultsFolder;
    }
}
