import sys

from gaqueens.bench.command import main

sys.exit(main())
