using Picollo.Simulation;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Simulation;

/// <summary>Whether this machine can count simulated counters, and what a user without Valgrind is told.</summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class ValgrindInstallationTests
{
    [Theory]
    [InlineData("valgrind-3.19.0\n", "3.19.0")]
    [InlineData("valgrind-3.22.0.GIT", "3.22.0")]
    [InlineData("valgrind-3.15.0-r1", "3.15.0")]
    [InlineData("hello", null)]
    public void TheVersionValgrindPrints_IsRead(string printed, string? expected) =>
        ValgrindInstallation.ParseVersion(printed)?.ToString().ShouldBe(expected);

    [Fact]
    public void NoValgrindOnThePath_IsUnavailable_WithTheInstallCommand()
    {
        using var folder = new TempDirectory();

        ValgrindInstallation found = ValgrindInstallation.Find(name => name == "PATH" ? folder.Path : null);

        found.IsAvailable.ShouldBeFalse();
        found.UnavailableReason!.ShouldStartWith("Valgrind is not installed (no valgrind on the PATH)");
        found.UnavailableReason.ShouldContain("sudo apt-get install valgrind");
    }

    [Fact]
    public void AValgrindVariableNamingNothing_SaysWhichFileIsMissing()
    {
        ValgrindInstallation found = ValgrindInstallation.Find(
            name => name == ValgrindInstallation.PathVariable ? "/nonexistent/valgrind" : null);

        found.UnavailableReason!.ShouldStartWith("PICOLLO_VALGRIND=/nonexistent/valgrind does not exist");
    }

    [Theory]
    [InlineData("valgrind-3.15.0", "is Valgrind 3.15.0; simulated counters need 3.19 or later")]
    [InlineData("not a valgrind", "is not a Valgrind whose version can be read (--version printed 'not a valgrind' (exit code 0))")]
    public void AValgrindTooOldOrUnknown_IsUnavailable_WithWhatItIs(string printed, string expected)
    {
        using var folder = new TempDirectory();
        string fake = folder.Combine("valgrind");
        File.WriteAllText(fake, $"#!/bin/sh\necho '{printed}'\n");
        File.SetUnixFileMode(fake, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        ValgrindInstallation found = ValgrindInstallation.Find(name => name == "PATH" ? folder.Path : null);

        found.IsAvailable.ShouldBeFalse();
        found.Path.ShouldBe(fake);
        found.UnavailableReason!.ShouldContain(expected);
    }
}
