package dev.spanprofile.autoconfigure.peers;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcPeersTests {

	@Test
	void theDriversUsualUrlsNameTheirServers() {
		assertThat(JdbcPeers.of("jdbc:postgresql://db:5432/petclinic?sslmode=disable"))
			.containsExactly(new JdbcPeers.Peer("db", 5432, "PostgreSQL petclinic at db:5432"));
		assertThat(JdbcPeers.of("jdbc:postgresql://primary,replica:5433/orders")).containsExactly(
				new JdbcPeers.Peer("primary", 5432, "PostgreSQL orders at primary:5432"),
				new JdbcPeers.Peer("replica", 5433, "PostgreSQL orders at replica:5433"));
		assertThat(JdbcPeers.of("jdbc:mysql://10.0.0.7/shop"))
			.containsExactly(new JdbcPeers.Peer("10.0.0.7", 3306, "MySQL shop at 10.0.0.7:3306"));
		assertThat(JdbcPeers.of("jdbc:sqlserver://sql\\inst:1444;databaseName=billing;encrypt=true"))
			.containsExactly(new JdbcPeers.Peer("sql", 1444, "SQL Server billing at sql:1444"));
		assertThat(JdbcPeers.of("jdbc:oracle:thin:@//ora:1522/SALES"))
			.containsExactly(new JdbcPeers.Peer("ora", 1522, "Oracle SALES at ora:1522"));
		assertThat(JdbcPeers.of("jdbc:oracle:thin:@ora:1521:ORCL"))
			.containsExactly(new JdbcPeers.Peer("ora", 1521, "Oracle ORCL at ora:1521"));
		assertThat(JdbcPeers.of("jdbc:postgresql://[::1]:5432/x"))
			.containsExactly(new JdbcPeers.Peer("::1", 5432, "PostgreSQL x at [::1]:5432"));
	}

	@Test
	void urlsWithoutAServerNameNone() {
		assertThat(JdbcPeers.of("jdbc:h2:mem:test")).isEmpty();
		assertThat(JdbcPeers.of("jdbc:postgresql://db:notaport/x")).isEmpty();
		assertThat(JdbcPeers.of("jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(HOST=ora)))")).isEmpty();
		assertThat(JdbcPeers.of("not a url")).isEmpty();
		assertThat(JdbcPeers.of(null)).isEmpty();
	}

}
