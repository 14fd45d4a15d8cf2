using NUnit.Framework;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using NUnit.Framework.Internal.Commands;

namespace Picollo.Testing.NUnit;

/// <summary>
/// One NUnit 4 performance test per attribute, with its data: the data fills the method's parameters (a trailing
/// <see cref="PerfContext"/> gets no data), and each case has its own baseline file, named after the data
/// (<c>HashPerf.Hash.16.perf.json</c>). The same knobs and behaviour as <see cref="PerfTestAttribute"/>.
/// </summary>
/// <example>
/// <code>
/// [PerfTestCase(16)]
/// [PerfTestCase(4096)]
/// public void Hash(int size, PerfContext perf)
/// {
///     byte[] data = new byte[size];
///     perf.Measure(data, static d => Hasher.Hash(d)).ShouldNotRegress();
/// }
/// </code>
/// </example>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
public sealed partial class PerfTestCaseAttribute : NUnitAttribute, ITestBuilder, IImplyFixture, IWrapTestMethod, IPerfTestDeclaration
{
    /// <summary>Declares one case.</summary>
    /// <param name="arguments">The case's data, one value per parameter before the <see cref="PerfContext"/>.</param>
    public PerfTestCaseAttribute(params object?[]? arguments) => Arguments = arguments ?? [null];

    /// <summary>The case's data.</summary>
    public IReadOnlyList<object?> Arguments { get; }

    /// <inheritdoc/>
    public IEnumerable<TestMethod> BuildFrom(IMethodInfo method, Test? suite)
    {
        ArgumentNullException.ThrowIfNull(method);
        yield return PerfNUnit.Build(method, suite, this, [.. Arguments], sourceFilePath: null, PerfNUnit.CaseTestName(Arguments.Count));
    }

    /// <summary>NUnit calls every <see cref="IWrapTestMethod"/> of the method, once per case attribute: only the first wraps.</summary>
    /// <param name="command">The command to wrap.</param>
    /// <returns>The perf command.</returns>
    public TestCommand Wrap(TestCommand command) => PerfNUnit.Wrap(command);
}
