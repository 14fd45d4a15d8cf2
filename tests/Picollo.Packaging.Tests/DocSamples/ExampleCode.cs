// The code Picollo's docs measure: the reader's own library in their samples (Parser, Words, Hasher, ...). Copied into
// the projects DocSampleTests compiles the docs' C# blocks in, never compiled into the test assembly (issue 27). A name
// a sample needs belongs here only when the sample stands for the reader's code; Picollo's own API is never stubbed.
namespace DocSamples;

public static class Parser
{
    public static int Parse(string text) => text.Length;
}

public static class NaiveParser
{
    public static int Parse(string text) => text.Split(',').Length;
}

public static class Words
{
    public static int Count(string text) => text.Split(' ').Length;

    public static int CountSpan(string text) => text.AsSpan().Count(' ') + 1;

    public static List<string> Tokenize(string text) => [.. text.Split(' ')];
}

public static class Hasher
{
    public static ulong Hash(int size) => (ulong)size * 31;

    public static ulong Hash(byte[] data) => (ulong)data.Length * 31;
}

public sealed record Request(string Body);

public sealed record Document(string Text)
{
    public static Document Parse(string text) => new(text);
}

public sealed record Response(string Body);

public static class Renderer
{
    public static Response Render(Document document) => new(document.Text);
}
