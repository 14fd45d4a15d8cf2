using Picollo.Testing;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>A test case's data carried to a lean simulation worker: attribute-held values round-trip, others are refused.</summary>
public sealed class LeanTestDataTests
{
    [Fact]
    public void AttributeValues_RoundTrip_WithTheirTypes()
    {
        object?[] data = [256, "utf-8", null, 'x', true, 1.5, 2.25f, 7L, (byte)3, 12.5m, DayOfWeek.Friday, new[] { 1, 2, 3 }, new[] { "a", null }];

        object?[] read = LeanTestData.Read(LeanTestData.Write(data)!);

        read.Length.ShouldBe(data.Length);
        for (int i = 0; i < data.Length; i++)
        {
            read[i]?.GetType().ShouldBe(data[i]?.GetType());
            read[i].ShouldBe(data[i]);
        }
    }

    [Fact]
    public void AnObjectOfAnotherType_IsNotCarried()
    {
        LeanTestData.Write([1, new Uri("https://example.com")]).ShouldBeNull();
        LeanTestData.Write([new[,] { { 1 } }]).ShouldBeNull();
    }

    [Fact]
    public void UnreadableData_SaysWhy()
    {
        Should.Throw<InvalidDataException>(() => LeanTestData.Read("[{\"t\": \"No.Such.Type, Nowhere\", \"v\": \"1\"}]"))
            .Message.ShouldBe("The test case's data handed to the simulation worker could not be read: "
                + "The type No.Such.Type, Nowhere of the test case's data is not found in the worker.");
    }
}
