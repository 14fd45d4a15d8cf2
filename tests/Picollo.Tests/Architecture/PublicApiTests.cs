using Picollo.Measurement;
using Picollo.Tests.Support;
using PublicApiGenerator;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// The public surface of Picollo.dll as C#, compared with an approved file: every API change is a reviewed diff of
/// <c>Approved/Picollo.PublicApi.approved.txt</c>. A change writes the received file beside it; rename it over the approved
/// one to accept.
/// </summary>
public sealed class PublicApiTests
{
    [Fact]
    public void PublicApi_MatchesTheApprovedSnapshot()
    {
        string api = typeof(Perf).Assembly.GeneratePublicApi(new ApiGeneratorOptions
        {
            // Attributes the compiler emits on every assembly say nothing about the API.
            ExcludeAttributes = ["System.Runtime.Versioning.TargetFrameworkAttribute", "System.Reflection.AssemblyMetadataAttribute"],
        });

        Approvals.Verify(api, "Picollo.PublicApi", "txt");
    }
}
