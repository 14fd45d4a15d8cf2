using System.Text;
using Picollo.Interop;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Interop;

public sealed class InteropMessagesTests
{
    private const string Path = "/home/ci/app/bin/Release/net10.0/libpicollo_native.so";

    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "LibraryNotLoadable", InteropMessages.LibraryNotLoadable(
            Path, Path + ": wrong ELF class: ELFCLASS32"));
        Add(text, "NotALibrary", InteropMessages.NotALibrary(Path, "An attempt was made to load a program with an incorrect format."));
        Add(text, "LibraryNotFound: folders, then the default probing", InteropMessages.LibraryNotFound(
            "libpicollo_native.so", [Path, "/home/ci/app/libpicollo_native.so"], usedDefaultProbing: true));
        Add(text, "LibraryNotFound: no folder searched", InteropMessages.LibraryNotFound("libpicollo_native.so", [], usedDefaultProbing: false));
        Add(text, "AnotherResolverRegistered", InteropMessages.AnotherResolverRegistered());
        Add(text, "NoVersionExport", InteropMessages.NoVersionExport(Path, "picollo_abi_version"));
        Add(text, "AbiVersionMismatch", InteropMessages.AbiVersionMismatch(Path, 1, 2));

        Approvals.Verify(text.ToString(), "InteropMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
