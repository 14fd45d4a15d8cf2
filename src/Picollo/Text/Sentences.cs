namespace Picollo.Text;

/// <summary>
/// Another component's text (an exception's message, dlerror's) inside a message of ours: whether it ends with a period
/// depends on who wrote it, so a message that quotes it says which form it needs.
/// </summary>
internal static class Sentences
{
    /// <summary><paramref name="text"/> as a sentence of its own: trimmed, with one final period.</summary>
    /// <param name="text">The quoted text.</param>
    /// <returns>E.g. <c>wrong ELF class: ELFCLASS32.</c></returns>
    public static string Ended(string text)
    {
        string trimmed = text.TrimEnd();
        return trimmed.EndsWith('.') ? trimmed : trimmed + ".";
    }

    /// <summary>
    /// <paramref name="text"/> inside a sentence of ours (before a period or a closing parenthesis): trimmed, no final
    /// period.
    /// </summary>
    /// <param name="text">The quoted text.</param>
    /// <returns>E.g. <c>No such file or directory</c>.</returns>
    public static string Unended(string text) => text.TrimEnd().TrimEnd('.');
}
