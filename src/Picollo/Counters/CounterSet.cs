using System.Collections.ObjectModel;

namespace Picollo.Counters;

/// <summary>
/// Several counter sources read as one: their descriptors flattened into one list and one
/// <see cref="ReadCumulative"/> that fills one contiguous span.
/// </summary>
/// <remarks>
/// <para>
/// Order: the sources in the order given to the constructor, each contributing its own descriptors in its own
/// order. The sources are read back to back in that same order, with no work in between. Each source's sample
/// window therefore contains one read of every other source: a constant that the engine's empty-body
/// calibration measures and subtracts, whatever the order.
/// </para>
/// <para>The set owns its sources and disposes them. Reads allocate nothing.</para>
/// </remarks>
public sealed class CounterSet : ICounterSource
{
    private readonly ICounterSource[] _sources;
    private readonly int[] _offsets;
    private readonly int[] _counts;
    private readonly ReadOnlyCollection<CounterDescriptor> _descriptors;
    private readonly ReadOnlyCollection<ICounterSource> _readOnlySources;
    private bool _disposed;

    /// <summary>Composes <paramref name="sources"/>, which the set then owns.</summary>
    /// <param name="sources">The sources, in read order.</param>
    /// <exception cref="ArgumentNullException">The array or one of the sources is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">
    /// Two counters have the same name (case-insensitively): their values could not be told apart.
    /// </exception>
    public CounterSet(params ICounterSource[] sources)
    {
        ArgumentNullException.ThrowIfNull(sources);
        _sources = (ICounterSource[])sources.Clone();
        _offsets = new int[_sources.Length];
        _counts = new int[_sources.Length];

        // The descriptors are captured once: a source's counters are fixed when it is created, and the engine
        // sizes its buffers and histograms from this list.
        var descriptors = new List<CounterDescriptor>();
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < _sources.Length; i++)
        {
            ICounterSource source = _sources[i] ?? throw new ArgumentNullException(nameof(sources), $"Source {i} is null.");
            _offsets[i] = descriptors.Count;
            _counts[i] = source.Descriptors.Count;
            foreach (CounterDescriptor descriptor in source.Descriptors)
            {
                if (!names.Add(descriptor.Name))
                    throw new ArgumentException($"The counter '{descriptor.Name}' appears more than once (source {i}).", nameof(sources));
                descriptors.Add(descriptor);
            }
        }

        _descriptors = descriptors.AsReadOnly();
        _readOnlySources = Array.AsReadOnly(_sources);
    }

    /// <inheritdoc/>
    public IReadOnlyList<CounterDescriptor> Descriptors => _descriptors;

    /// <summary>The sources, in read order.</summary>
    public IReadOnlyList<ICounterSource> Sources => _readOnlySources;

    /// <summary>How many counters all sources have together: the length <see cref="ReadCumulative"/> needs.</summary>
    public int Count => _descriptors.Count;

    /// <summary>The position of a counter in <see cref="Descriptors"/> and in the read span.</summary>
    /// <param name="counterName">The counter's name, matched case-insensitively.</param>
    /// <returns>The index, or -1 when no source has that counter.</returns>
    public int IndexOf(string counterName)
    {
        ArgumentNullException.ThrowIfNull(counterName);
        for (int i = 0; i < _descriptors.Count; i++)
        {
            if (string.Equals(_descriptors[i].Name, counterName, StringComparison.OrdinalIgnoreCase))
                return i;
        }

        return -1;
    }

    /// <inheritdoc/>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than <see cref="Count"/>.</exception>
    /// <exception cref="ObjectDisposedException">The set was disposed.</exception>
    public void ReadCumulative(Span<ulong> destination)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (destination.Length < _descriptors.Count)
        {
            throw new ArgumentException(
                $"The destination holds {destination.Length} values but the set reads {_descriptors.Count}.", nameof(destination));
        }


        // Each source gets exactly its own slice, so a source cannot write over its neighbours.
        ICounterSource[] sources = _sources;
        for (int i = 0; i < sources.Length; i++)
            sources[i].ReadCumulative(destination.Slice(_offsets[i], _counts[i]));
    }

    /// <summary>Disposes every source, all of them even when one throws.</summary>
    /// <exception cref="AggregateException">One or more sources threw while being disposed.</exception>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;

        List<Exception>? errors = null;
        foreach (ICounterSource source in _sources)
        {
            try
            {
                source.Dispose();
            }
            catch (Exception e)
            {
                // Keep going: a source left undisposed would leak its file descriptors; all failures surface below.
                (errors ??= []).Add(e);
            }
        }

        if (errors is not null)
            throw new AggregateException("Disposing the counter sources failed.", errors);
    }
}
