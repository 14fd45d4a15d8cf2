namespace Picollo.Metrics;

/// <summary>Which value of a bucket stands for all the values recorded into it.</summary>
public enum EquivalentValueSelection
{
    /// <summary>The bucket's midpoint, start + step / 2: the smallest worst-case relative error (default).</summary>
    Midpoint = 0,

    /// <summary>The bucket's inclusive start: never above any value recorded into the bucket.</summary>
    Lower = 1,

    /// <summary>
    /// The bucket's highest value, start + step − 1: never below any value recorded into the bucket (HdrHistogram's choice).
    /// </summary>
    Upper = 2,
}
