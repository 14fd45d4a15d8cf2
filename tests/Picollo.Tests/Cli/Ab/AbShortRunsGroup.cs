using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// <see cref="PicolloAbShortRunTests"/>: a collection of their own, started right after <see cref="AbPipelineGroup"/> by
/// <see cref="Support.LongCollectionsFirst"/>, so their builds run beside the main run's instead of after it.
/// </summary>
[CollectionDefinition(Name)]
public sealed class AbShortRunsGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "picollo ab short runs";
}
