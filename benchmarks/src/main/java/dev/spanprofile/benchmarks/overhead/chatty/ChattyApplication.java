package dev.spanprofile.benchmarks.overhead.chatty;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The chatty-database application of the benchmarks: a PetClinic-like owners list over
 * plain JDBC on a real PostgreSQL, with the N+1 pattern most such pages have (one query
 * for the owners, one more per owner for their pets: four round trips a request). The
 * benchmark ({@code ChattyDatabaseBenchmark}) starts it in a JVM of its own and points
 * its data source at a proxy that delays each answer, so that every query is a short wait
 * and none is long.
 */
@SpringBootApplication
public class ChattyApplication {

	public static void main(String[] args) {
		SpringApplication.run(ChattyApplication.class, args);
	}

}
