package dev.spanprofile.benchmarks.overhead.pages;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface OwnerRepository extends JpaRepository<Owner, Integer> {

	@Query("select distinct o from Owner o left join fetch o.pets where o.lastName like :prefix% order by o.lastName, o.firstName")
	List<Owner> findByLastNamePrefix(@Param("prefix") String prefix);

}
