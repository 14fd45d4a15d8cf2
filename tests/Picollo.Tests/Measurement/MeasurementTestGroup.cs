using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// Measuring test classes run one at a time and never beside each other's timing checks (Perf's own gate already
/// serializes the measurements; this also keeps their assertions from overlapping).
/// </summary>
[CollectionDefinition(Name)]
public sealed class MeasurementTestGroup
{
    public const string Name = "measurement";
}
