namespace Picollo.Cli.Bisect;

/// <summary>A commit of the range <c>picollo bisect</c> searches.</summary>
/// <param name="Sha">Its full sha.</param>
/// <param name="Subject">The first line of its message.</param>
internal sealed record BisectCommit(string Sha, string Subject)
{
    /// <summary>The commit as messages show it: its first 10 hex digits, as <c>picollo ab</c>'s report does.</summary>
    public string Short => Sha.Length > 10 ? Sha[..10] : Sha;

    /// <summary>The sha and the subject, as a line names the commit: <c>1a2b3c4d5e Parse tables in one pass</c>.</summary>
    public override string ToString() => $"{Short} {Subject}";
}
