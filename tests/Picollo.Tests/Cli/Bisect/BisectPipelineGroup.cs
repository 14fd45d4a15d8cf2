using Xunit;

namespace Picollo.Tests.Cli.Bisect;

/// <summary>
/// The real <c>picollo bisect</c> run (<see cref="PicolloBisectTests"/>): a collection of its own that runs beside the
/// parallel test classes, started early by <see cref="Support.LongCollectionsFirst"/> (after <c>picollo ab</c>'s two), so its
/// builds do not leave a core idle at the end of the suite.
/// </summary>
[CollectionDefinition(Name)]
public sealed class BisectPipelineGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "picollo bisect pipeline";
}
