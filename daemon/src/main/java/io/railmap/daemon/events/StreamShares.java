package io.railmap.daemon.events;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who gets an event stream when its slots are short, so that one peer (one local user, one remote
 * address) cannot take them all: a peer holds at most {@code perPeer} streams, and within its share
 * its newest stream wins (the oldest is closed, as a client that reconnects would replace it); once
 * every slot is taken, a peer holding fewer streams than the busiest peer takes the busiest peer's
 * oldest stream (max-min fairness), and a peer holding as many is refused. A closed stream's client
 * resumes with {@code Last-Event-ID} and misses nothing still held.
 *
 * <p>Pure: no state, no I/O. Cost: O(n) in the streams open.
 */
final class StreamShares {
    private StreamShares() {
    }

    /** What happens to a request for a stream. */
    sealed interface Decision permits Admit, Replace, Refuse {
    }

    /** A free slot: the stream opens. */
    record Admit() implements Decision {
    }

    /**
     * The stream opens in place of another, which is closed.
     *
     * @param index the closed stream's index in the list given
     * @param why   a sentence for the closed stream's client
     */
    record Replace(int index, String why) implements Decision {
    }

    /**
     * No slot for this peer.
     *
     * @param why a sentence for the client
     */
    record Refuse(String why) implements Decision {
    }

    /**
     * @param open    the peer of each open stream, oldest first
     * @param peer    the peer asking
     * @param max     streams at once, at least 1
     * @param perPeer streams of one peer at once, at least 1
     * @return what to do
     */
    static Decision decide(List<String> open, String peer, int max, int perPeer) {
        Map<String, Integer> count = new HashMap<>();
        open.forEach(p -> count.merge(p, 1, Integer::sum));
        int own = count.getOrDefault(peer, 0);
        if (own >= perPeer) {
            return new Replace(open.indexOf(peer), "a newer event stream from the same peer took this one's place (at most " + perPeer
                    + " per peer); resume with Last-Event-ID");
        }
        if (open.size() < max) {
            return new Admit();
        }
        // the busiest peer; of equals, the one whose oldest stream is oldest (the first met in age order)
        String busiest = open.get(0);
        for (String p : open) {
            if (count.get(p) > count.get(busiest)) {
                busiest = p;
            }
        }
        if (count.get(busiest) > own + 1) {
            return new Replace(open.indexOf(busiest), "all " + max + " event streams were taken and this peer held the most: another "
                    + "peer took this one's place; resume with Last-Event-ID");
        }
        return new Refuse(max + " event streams are open, the most this daemon serves, and this peer holds as many as any other: "
                + "close one, or try again later");
    }
}
