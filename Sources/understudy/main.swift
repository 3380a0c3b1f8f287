import Foundation
import UnderstudyServer

exit(await UnderstudyCommand.main(CommandLine.arguments))
