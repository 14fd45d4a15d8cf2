using Picollo.Measurement;
using Picollo.Tests.Support;
using PublicApiGenerator;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// The public surface of each shipped assembly as C#, compared with an approved file: every API change is a reviewed diff
/// of <c>Approved/&lt;assembly&gt;.PublicApi.approved.txt</c>. A change writes the received file beside it; rename it over
/// the approved one to accept.
/// </summary>
public sealed class PublicApiTests
{
    // Attributes the compiler emits on every assembly say nothing about the API.
    private static readonly ApiGeneratorOptions s_options = new()
    {
        ExcludeAttributes = ["System.Runtime.Versioning.TargetFrameworkAttribute", "System.Reflection.AssemblyMetadataAttribute"],
    };

    [Fact]
    public void PublicApi_MatchesTheApprovedSnapshot() =>
        Approvals.Verify(typeof(Perf).Assembly.GeneratePublicApi(s_options), "Picollo.PublicApi", "txt");

    [Fact]
    public void XunitAdapterPublicApi_MatchesTheApprovedSnapshot() =>
        Approvals.Verify(typeof(Picollo.Testing.Xunit.PerfFactAttribute).Assembly.GeneratePublicApi(s_options), "Picollo.Testing.Xunit.PublicApi", "txt");

    [Fact]
    public void NUnitAdapterPublicApi_MatchesTheApprovedSnapshot() =>
        Approvals.Verify(typeof(Picollo.Testing.NUnit.PerfTestAttribute).Assembly.GeneratePublicApi(s_options), "Picollo.Testing.NUnit.PublicApi", "txt");
}
