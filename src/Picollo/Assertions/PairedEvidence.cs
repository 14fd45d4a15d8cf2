namespace Picollo.Assertions;

/// <summary>What a paired verdict shows of one counter: its ratio, the interval and its coverage, d_z, floors, pairs.</summary>
internal readonly record struct PairedEvidence(
    string Counter,
    double Ratio,
    double Low,
    double High,
    double Coverage,
    double CohensDz,
    double FloorRatio,
    int Pairs,
    int Measurements);
