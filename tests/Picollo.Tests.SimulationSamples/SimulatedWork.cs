namespace Picollo.Tests.SimulationSamples;

/// <summary>Deterministic work for simulated counters: the same instructions in every process.</summary>
public static class SimulatedWork
{
    /// <summary>Words in a sentence: a branch per character.</summary>
    public static int CountWords(string text)
    {
        int words = 0;
        bool inWord = false;
        foreach (char c in text)
        {
            if (c == ' ')
            {
                inWord = false;
            }
            else if (!inWord)
            {
                inWord = true;
                words++;
            }
        }

        return words;
    }

    /// <summary>A dependent chain of <paramref name="steps"/> multiply-adds: instructions in proportion to the steps.</summary>
    public static ulong Chain(int steps)
    {
        ulong x = 1;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        return x;
    }

    /// <summary>Whether this process is a simulation worker (its work may then differ on purpose).</summary>
    public static bool InWorker => Environment.GetEnvironmentVariable("PICOLLO_SIMULATION_WORKER") is not null;
}
