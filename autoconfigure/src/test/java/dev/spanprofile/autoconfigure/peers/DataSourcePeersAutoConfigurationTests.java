package dev.spanprofile.autoconfigure.peers;

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.sampling.PeerNames;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class DataSourcePeersAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SpanProfileAutoConfiguration.class, DataSourcePeersAutoConfiguration.class))
		.withPropertyValues("spanprofile.engine=jfr", "spanprofile.waits.socket-threshold=2ms");

	@Test
	void aDataSourcesJdbcUrlNamesItsServerForTheWaits() {
		this.contextRunner.withUserConfiguration(PostgresDataSource.class).run((context) -> {
			PeerNames peers = context.getBean(PeerNames.class);
			// Matched by the host the URL names, or the address a socket event reports.
			assertThat(peers.of("db", "10.1.2.3", 5432)).isEqualTo("PostgreSQL petclinic at db:5432");
			assertThat(peers.of("other", "10.1.2.3", 5432)).isNull();
			// The profiler's waits read the same names, from the socket threshold set.
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.settings().sampler().socketWaits().peers()).isSameAs(peers);
			assertThat(profiler.settings().sampler().socketWaitThreshold()).isEqualTo(Duration.ofMillis(2));
		});
	}

	@Test
	void withoutWaitsNoDataSourceIsRead() {
		this.contextRunner.withUserConfiguration(PostgresDataSource.class)
			.withPropertyValues("spanprofile.waits.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DataSourcePeerNames.class);
				assertThat(context.getBean(PeerNames.class).all()).isEmpty();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class PostgresDataSource {

		/** Hikari opens no connection until one is asked for. */
		@Bean
		DataSource dataSource() {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl("jdbc:postgresql://db:5432/petclinic");
			return dataSource;
		}

	}

}
