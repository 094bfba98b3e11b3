import aliased
import exec_alias
import handed
import method_write
import readonly

aliased.run()
method_write.run()
exec_alias.run()
handed.run()
readonly.run()
