using System.Threading.Channels;

namespace TextKit.ObservedService;

/// <summary>
/// The service's intake: a producer thread that feeds documents into a bounded channel the workers pull from. The documents
/// are generated once, before the clock starts, from a seeded <see cref="Random"/> and fed in order, round and round: every
/// run indexes the same documents and producing one costs a channel write, not the generation of its text.
/// </summary>
internal sealed class DocumentFeed
{
    private readonly string[] _corpus;
    private readonly Channel<string> _channel;
    private readonly Thread _producer;
    private readonly CancellationToken _stop;

    /// <summary>Generates the corpus and creates the channel; <see cref="Start"/> starts the producer.</summary>
    /// <param name="seed">The seed of the documents.</param>
    /// <param name="documents">How many distinct documents the producer cycles through.</param>
    /// <param name="capacity">How many documents the channel holds before the producer waits.</param>
    /// <param name="stop">Ends the feed: the producer completes the channel and returns.</param>
    public DocumentFeed(int seed, int documents, int capacity, CancellationToken stop)
    {
        _corpus = DocumentSource.Create(seed, documents);
        // The producer only calls TryWrite, which fails when the channel is full, so no full mode applies.
        _channel = Channel.CreateBounded<string>(new BoundedChannelOptions(capacity) { SingleWriter = true });
        _stop = stop;
        _producer = new Thread(Produce) { Name = "producer", IsBackground = true };
    }

    /// <summary>Starts the producer thread.</summary>
    public void Start() => _producer.Start();

    /// <summary>Waits for the producer to have completed the channel (after the stop token fired).</summary>
    public void Join() => _producer.Join();

    /// <summary>
    /// Takes the next document on a worker thread, waiting while the channel is empty; <see langword="false"/> once the feed
    /// has stopped and the channel is drained.
    /// </summary>
    public bool TryTake([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? document)
    {
        ChannelReader<string> reader = _channel.Reader;
        while (!reader.TryRead(out document))
        {
            // Rare (the producer tops the channel up every millisecond): the workers are threads, so they block here.
            if (!reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
                return false;
        }

        return true;
    }

    private void Produce()
    {
        ChannelWriter<string> writer = _channel.Writer;
        long next = 0;
        while (!_stop.IsCancellationRequested)
        {
            // Top the channel up, then sleep a millisecond (the workers take ≈ 100 documents in it, the channel holds more):
            // a producer woken for every freed slot would cost the workers a futex wake per document.
            while (writer.TryWrite(_corpus[next % _corpus.Length]))
                next++;
            Thread.Sleep(1);
        }

        writer.TryComplete();
    }
}
