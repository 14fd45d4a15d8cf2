using System.Text;
using Picollo.Text;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Text;

public sealed class ReviewableJsonTests
{
    private static string Format(string json) => ReviewableJson.Format(Encoding.UTF8.GetBytes(json));

    [Fact]
    public void ScalarOnlyContainers_GoOnOneLine_AndNestedOnesAreIndented()
    {
        string text = Format("""{"a":{"b":{"x":1,"y":"z"},"c":[1,2],"e":{},"f":[]},"g":true}""");

        text.ShouldBe("""
            {
              "a": {
                "b": { "x": 1, "y": "z" },
                "c": [1, 2],
                "e": {},
                "f": []
              },
              "g": true
            }
            """.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void ArraysOfObjects_PutOneObjectPerLine()
    {
        Format("""[{"a":1},{"a":2}]""").ShouldBe("[\n  { \"a\": 1 },\n  { \"a\": 2 }\n]");
    }

    [Fact]
    public void Strings_AreEscapedOnlyWhereJsonRequires()
    {
        // The serializer's default escaping: '+' and '≥' as \u sequences, for HTML pages these files never enter.
        string text = Format("""{"k\u002B":"a\u002Bb \u2265 \"q\" \\ \n"}""");

        text.ShouldBe("{ \"k+\": \"a+b ≥ \\\"q\\\" \\\\ \\n\" }");
    }

    [Fact]
    public void Numbers_KeepTheSerializersSpelling()
    {
        Format("""{"a":0.0009765625,"b":18446744073709551615,"c":-1.5E-07}""")
            .ShouldBe("""{ "a": 0.0009765625, "b": 18446744073709551615, "c": -1.5E-07 }""");
    }
}
