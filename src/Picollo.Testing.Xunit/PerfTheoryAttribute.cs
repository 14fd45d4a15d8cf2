using System.Runtime.CompilerServices;
using Xunit;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// An xunit.v3 performance theory: one perf test per data row (<c>[InlineData]</c>, <c>[MemberData]</c>, ...), each with its
/// own baseline file named after the row's data. The method is the measured operation with the row's values bound once,
/// or it takes a trailing <see cref="PerfContext"/> that the data does not fill.
/// </summary>
/// <remarks>
/// <para>
/// xunit.analyzers count a required trailing <see cref="PerfContext"/> as a parameter the data must fill (xUnit1009).
/// Declare it optional, <c>PerfContext perf = null!</c>: the row leaves it out and Picollo passes the test's context.
/// Or take no <see cref="PerfContext"/> and use <see cref="PerfContext.Current"/>.
/// </para>
/// <para>Everything else is as for <see cref="PerfFactAttribute"/>.</para>
/// </remarks>
/// <example>
/// <code>
/// [PerfTheory]
/// [InlineData(16)]
/// [InlineData(4096)]
/// public ulong Hash(int size) => Hasher.Hash(size);                     // body as operation, size bound once per row
///
/// [PerfTheory(Baseline = true)]
/// [InlineData(16)]
/// [InlineData(4096)]
/// public void HashBuffer(int size, PerfContext perf = null!)
/// {
///     byte[] buffer = new byte[size];                                    // not measured
///     perf.Measure(buffer, static b => Hasher.Hash(b));
/// }
/// </code>
/// </example>
[XunitTestCaseDiscoverer(typeof(PerfTheoryDiscoverer))]
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed partial class PerfTheoryAttribute : TheoryAttribute, ITraitAttribute, IPerfTestDeclaration
{
    /// <summary>Declares a perf test; the compiler fills in where it is, which is where its baseline lives.</summary>
    /// <param name="sourceFilePath">Filled in by the compiler.</param>
    /// <param name="sourceLineNumber">Filled in by the compiler.</param>
    public PerfTheoryAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
    }

    /// <summary>The trait <c>Category=Performance</c>.</summary>
    /// <returns>The trait.</returns>
    public IReadOnlyCollection<KeyValuePair<string, string>> GetTraits() => [new(PerfXunit.CategoryTrait, PerfXunit.PerformanceCategory)];
}
