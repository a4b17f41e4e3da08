package io.railmap.daemon.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.railmap.daemon.discovery.SkipException;
import org.junit.jupiter.api.Test;

/** Bus shapes the real captures do not show; written in the fields of a full capture. */
class SystemProfilerThunderboltTest {
    private static final String HOST = "{\"_name\": \"Mac Studio\", \"domain_uuid_key\": \"28ca4c30-a263-4c55-b302-953416d0b209\"}";

    private static JsonNode bus(String items) throws Exception {
        String json = "{\"SPThunderboltDataType\": [{\"_name\": \"thunderboltusb4_bus_0\","
                + " \"domain_uuid_key\": \"817DCFA4-B481-4100-80FC-91C7AA969F0B\","
                + " \"receptacle_1_tag\": {\"current_speed_key\": \"40 Gb/s\", \"receptacle_id_key\": \"1\"},"
                + " \"_items\": " + items + "}]}";
        return SystemProfilerThunderbolt.buses(new CommandOutput("test", json)).get(0);
    }

    @Test
    void aPeerHostTwoLevelsDownKeepsItsDomainUuidAndIsBehindAHub() throws Exception {
        ThunderboltBus bus = SystemProfilerThunderbolt.bus(bus(
                "[{\"_name\": \"Dock\", \"_items\": [{\"_name\": \"Hub\", \"_items\": [" + HOST + "]}]}]"));

        assertThat(bus.peerHost()).isTrue();
        assertThat(bus.thunderbolt().behindHub()).isTrue();
        assertThat(bus.thunderbolt().peerDomainUuid()).contains("28CA4C30-A263-4C55-B302-953416D0B209");
        assertThat(bus.thunderbolt().domainUuid()).contains("817DCFA4-B481-4100-80FC-91C7AA969F0B");
    }

    @Test
    void devicesAloneGiveNoPeer() throws Exception {
        ThunderboltBus bus = SystemProfilerThunderbolt.bus(bus("[{\"_name\": \"Drive\", \"_items\": [{\"_name\": \"SSD\"}]}]"));

        assertThat(bus.peerHost()).isFalse();
        assertThat(bus.thunderbolt().peerName()).isEmpty();
        assertThat(bus.thunderbolt().behindHub()).isFalse();
        assertThat(bus.thunderbolt().linkSpeedGbps()).contains(40.0);
    }

    @Test
    void twoPeerHostsOnOneBusSkipIt() throws Exception {
        JsonNode bus = bus("[{\"_name\": \"Dock\", \"_items\": [" + HOST + ", {\"_name\": \"MacBook Pro\", \"services_title\": []}]}]");

        assertThatThrownBy(() -> SystemProfilerThunderbolt.bus(bus))
                .isInstanceOf(SkipException.class)
                .hasMessageContaining("2 peer hosts [Mac Studio, MacBook Pro]");
    }

    @Test
    void anOddPeerUuidSkipsTheBus() throws Exception {
        JsonNode bus = bus("[{\"_name\": \"Mac Studio\", \"domain_uuid_key\": \"not-a-uuid\"}]");

        assertThatThrownBy(() -> SystemProfilerThunderbolt.bus(bus))
                .hasMessageContaining("domain_uuid_key \"not-a-uuid\" is not a UUID");
    }
}
