using System.Runtime.Versioning;
using Picollo.Baselines;
using Picollo.Baselines.Storage;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

[SupportedOSPlatform("linux")]
public sealed class BaselineFileLockTests
{
    [Fact]
    public void Lock_CreatesNothing_AndLeavesNothingBehind()
    {
        using var temp = new TempDirectory();
        string baseline = temp.Combine("T.M.perf.json");
        string[] tempBefore = Directory.GetFiles(Path.GetTempPath(), "*.lock");

        using (BaselineFileLock.Acquire(baseline, TimeSpan.FromSeconds(5)))
            Directory.GetFileSystemEntries(temp.Path).ShouldBeEmpty();

        Directory.GetFileSystemEntries(temp.Path).ShouldBeEmpty();
        Directory.GetFiles(Path.GetTempPath(), "*.lock").Except(tempBefore).ShouldBeEmpty();
    }

    [Fact]
    public async Task SecondHolder_TimesOutNamingTheFolder_WhileTheFirstHoldsIt_ThenGetsIt()
    {
        using var temp = new TempDirectory();
        string baseline = temp.Combine("T.M.perf.json");

        using (BaselineFileLock.Acquire(baseline, TimeSpan.FromSeconds(5)))
        {
            // Another thread opens its own file description of the folder: flock excludes it like another process.
            TimeoutException timeout = await Should.ThrowAsync<TimeoutException>(Task.Run(() => BaselineFileLock.Acquire(baseline, TimeSpan.FromMilliseconds(200)), TestContext.Current.CancellationToken));
            timeout.Message.ShouldContain($"held the lock of the baseline folder '{temp.Path}' for more than 0.2 s");
        }

        using BaselineFileLock second = await Task.Run(() => BaselineFileLock.Acquire(baseline, TimeSpan.FromSeconds(5)), TestContext.Current.CancellationToken);
        Directory.GetFileSystemEntries(temp.Path).ShouldBeEmpty();
    }

    [Fact]
    public void AnotherUser_LocksAFolderTheyCannotWrite_NoSharedLockFolderStandsInTheWay()
    {
        using var temp = new TempDirectory();
        string baseline = temp.Combine("T.M.perf.json");
        using (OtherUser.MakeReadOnly(temp.Path))
        {
            // The lock used to be a file in a shared folder under /tmp, created by whoever came first: nobody else could lock.
            OtherUser.Run(() =>
            {
                using (BaselineFileLock.Acquire(baseline, TimeSpan.FromSeconds(5)))
                {
                }
            });
        }
    }

    [Fact]
    public void MissingFolder_ThrowsDirectoryNotFoundNamingIt()
    {
        using var temp = new TempDirectory();
        string missing = temp.Combine("no-such-folder");

        Should.Throw<DirectoryNotFoundException>(() => BaselineFileLock.Acquire(Path.Combine(missing, "T.M.perf.json"), TimeSpan.FromSeconds(1)))
            .Message.ShouldContain($"The baseline folder '{missing}' does not exist");
    }
}
