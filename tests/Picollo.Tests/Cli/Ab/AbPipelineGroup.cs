using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The real <c>picollo ab</c> runs (<see cref="PicolloAbTests"/>): a collection of their own that runs beside the parallel
/// test classes, not in the <see cref="Measurement.MeasurementTestGroup"/> that runs alone. Its verdicts come from process
/// pairs measured at the same time, which is what keeps them apart from other work on the machine (issue 26); its builds and
/// pairs take most of its two minutes, and run alone they were 110 s of the assembly's 220 (issue 24, "Suite under 5
/// minutes"). <see cref="Support.LongCollectionsFirst"/> starts it before every other collection, so the rest of the
/// parallel classes run beside it on the other core.
/// </summary>
[CollectionDefinition(Name)]
public sealed class AbPipelineGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "picollo ab pipeline";
}
