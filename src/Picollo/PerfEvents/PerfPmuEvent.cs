namespace Picollo.PerfEvents;

/// <summary>A sysfs event alias: <c>&lt;pmu&gt;/events/&lt;name&gt;</c> with its optional <c>.scale</c> and <c>.unit</c>.</summary>
/// <param name="Name">The alias file name (e.g. <c>cycles-ct</c>).</param>
/// <param name="Terms">The file content: the terms it stands for (e.g. <c>event=0x3c,in_tx=1,in_tx_cp=1</c>).</param>
/// <param name="Scale">The multiplier from <c>&lt;name&gt;.scale</c>, 1 when absent.</param>
/// <param name="Unit">The unit from <c>&lt;name&gt;.unit</c>, or <see langword="null"/> when absent.</param>
internal sealed record PerfPmuEvent(string Name, string Terms, double Scale, string? Unit);
